import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, DiscoveryService, MetadataScanner } from '@nestjs/core';

/** A provider instance whose class a decorator marked, with the decorator's metadata. */
export interface DiscoveredClass<T> {
  instance: Record<string, unknown>;
  metatype: { name: string };
  metadata: T;
}

/** A method a decorator marked, on a provider instance. */
export interface DiscoveredMethod<T> extends DiscoveredClass<T> {
  name: string;
  method: (...args: unknown[]) => unknown;
}

interface Scanned {
  instance: Record<string, unknown>;
  metatype: { name: string };
  methods: string[];
}

/**
 * The app's providers, read once: their instances and their methods' names, which every
 * registry built by discovery (hooks, workflows, subscribers and jobs, first-boot handlers)
 * filters by its own decorator's metadata. The first ask reads them, once every provider
 * is made (in a lifecycle hook); the others read the list it made.
 */
@Injectable()
export class ProviderDiscovery {
  private scanned?: Scanned[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  /** The providers whose class carries `key`, with its metadata. */
  classesWith<T>(key: string): DiscoveredClass<T>[] {
    return this.providers().flatMap(({ instance, metatype }) => {
      const metadata = Reflect.getMetadata(key, metatype) as T | undefined;
      return metadata === undefined ? [] : [{ instance, metatype, metadata }];
    });
  }

  /** The methods, of any provider, that carry `key`, with its metadata. */
  methodsWith<T>(key: string): DiscoveredMethod<T>[] {
    return this.providers().flatMap(({ instance, metatype, methods }) =>
      methods.flatMap((name) => {
        const method = instance[name] as DiscoveredMethod<T>['method'];
        const metadata = Reflect.getMetadata(key, method) as T | undefined;
        return metadata === undefined ? [] : [{ instance, metatype, metadata, name, method }];
      }),
    );
  }

  private providers(): Scanned[] {
    this.scanned ??= this.discovery.getProviders().flatMap(({ metatype, instance }) => {
      if (!metatype || !instance || typeof instance !== 'object') return [];
      const methods = this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object);
      return [{ instance: instance as Record<string, unknown>, metatype, methods }];
    });
    return this.scanned;
  }
}

/** One ProviderDiscovery for the app: every module that imports this shares it. */
@Module({
  imports: [DiscoveryModule],
  providers: [ProviderDiscovery],
  exports: [ProviderDiscovery],
})
export class ProviderDiscoveryModule {}
