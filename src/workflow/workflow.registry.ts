import { ProviderDiscovery } from '../common/provider-discovery';
import { Injectable, OnApplicationBootstrap, OnModuleInit } from '@nestjs/common';
import { Action, ACTIONS } from '../access/access.depth';
import { EntityRegistry } from '../model/entity.registry';
import {
  ARGUMENT_TYPES,
  ArgumentDefinition,
  WORKFLOW,
  WORKFLOW_METHOD,
  WorkflowMethodOptions,
} from './workflow.decorators';

export interface WorkflowMethodDefinition {
  workflow: string;
  name: string;
  arguments: ArgumentDefinition[];
  access: 'everyone' | 'admin';
  requires: Record<string, Action>;
  roles: string[];
  /** The provider's method, bound to its instance. */
  run: (...args: unknown[]) => unknown;
}

/** Every @Workflow provider's @WorkflowMethod, found once at boot. */
@Injectable()
export class WorkflowRegistry implements OnModuleInit, OnApplicationBootstrap {
  private readonly workflows = new Map<string, Map<string, WorkflowMethodDefinition>>();

  constructor(
    private readonly discovery: ProviderDiscovery,
    private readonly entities: EntityRegistry,
  ) {}

  onModuleInit(): void {
    const owners = new Map<string, string>();
    for (const { metatype, metadata: name } of this.discovery.classesWith<string>(WORKFLOW)) {
      if (owners.has(name)) {
        throw new Error(
          `Two workflows are named "${name}": ${owners.get(name)} and ${metatype.name}`,
        );
      }
      owners.set(name, metatype.name);
      this.workflows.set(name, new Map());
    }
    const methods = this.discovery.methodsWith<WorkflowMethodOptions>(WORKFLOW_METHOD);
    for (const { metatype, instance, name: key, method, metadata: options } of methods) {
      const workflow = Reflect.getMetadata(WORKFLOW, metatype) as string | undefined;
      if (workflow === undefined) continue; // a workflow method outside a workflow does nothing
      this.addMethod(workflow, key, options, method.bind(instance));
    }
  }

  /** After every module's init, when the entity registry is complete: a typo fails the boot. */
  onApplicationBootstrap(): void {
    for (const { name, methods } of this.all()) {
      for (const method of methods) {
        for (const [entity, action] of Object.entries(method.requires)) {
          if (!this.entities.find(entity)) {
            throw new Error(
              `${name}.${method.name} requires ${entity}: no entity type has that name`,
            );
          }
          if (!ACTIONS.includes(action)) {
            throw new Error(
              `${name}.${method.name} requires "${action}" on ${entity}, not one of ${ACTIONS.join(', ')}`,
            );
          }
        }
      }
    }
  }

  find(workflow: string, method: string): WorkflowMethodDefinition | undefined {
    return this.workflows.get(workflow)?.get(method);
  }

  has(workflow: string): boolean {
    return this.workflows.has(workflow);
  }

  all(): { name: string; methods: WorkflowMethodDefinition[] }[] {
    return [...this.workflows].map(([name, methods]) => ({ name, methods: [...methods.values()] }));
  }

  private addMethod(
    workflow: string,
    key: string,
    options: WorkflowMethodOptions,
    run: (...args: unknown[]) => unknown,
  ): void {
    const methods = this.workflows.get(workflow)!;
    const name = options.name ?? key;
    if (methods.has(name)) {
      throw new Error(`Workflow "${workflow}" has two methods named "${name}"`);
    }
    methods.set(name, {
      workflow,
      name,
      arguments: checkedArguments(`${workflow}.${name}`, options.arguments ?? []),
      access: options.access ?? 'everyone',
      requires: options.requires ?? {},
      roles: options.roles ?? [],
      run,
    });
  }
}

function checkedArguments(path: string, definitions: ArgumentDefinition[]): ArgumentDefinition[] {
  const seen = new Set<string>();
  for (const { name, type } of definitions) {
    if (seen.has(name)) throw new Error(`${path}: two arguments are named "${name}"`);
    if (!ARGUMENT_TYPES.includes(type)) {
      throw new Error(
        `${path}: argument "${name}" has type "${type}", not one of ${ARGUMENT_TYPES.join(', ')}`,
      );
    }
    seen.add(name);
  }
  return definitions;
}
