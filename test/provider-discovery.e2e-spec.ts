import { Injectable, Module } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { EntityHooks, Job, OnEntityEvent, Workflow, WorkflowMethod } from '../src/atrium';
import { FirstBootService, OnFirstBoot } from '../src/directory/first-boot.service';
import { HookRegistry } from '../src/entity/hook-registry';
import { EventHandlers } from '../src/events/event-handlers.service';
import { WorkflowRegistry } from '../src/workflow/workflow.registry';
import { createTestApp, TestApp } from './helpers/test-app';

@EntityHooks('product')
class ProductRules {
  onBeforeInsert(): void {}
}

@Workflow('discovered')
class DiscoveredWorkflow {
  @WorkflowMethod()
  run() {
    return {};
  }
}

@Injectable()
class Subscriber {
  @OnEntityEvent('product', ['created'])
  async created(): Promise<void> {}

  @Job('discovered-job')
  async job(): Promise<void> {}
}

@OnFirstBoot()
@Injectable()
class FirstBootHandler {
  async onFirstBoot(): Promise<void> {}
}

@Module({ providers: [ProductRules, DiscoveredWorkflow, Subscriber, FirstBootHandler] })
class EveryKindModule {}

/**
 * Hooks, workflows, event subscribers, jobs and first-boot handlers are all found by
 * discovery: in one reading of the app's providers at boot, not one per kind.
 */
describe('discovery at boot', () => {
  let t: TestApp;
  let listed: jest.SpyInstance;

  beforeAll(async () => {
    listed = jest.spyOn(DiscoveryService.prototype, 'getProviders');
    t = await createTestApp({}, [EveryKindModule]);
  });
  afterAll(async () => {
    listed.mockRestore();
    await t.close();
  });

  it('finds each kind in one reading of the providers', () => {
    expect(t.app.get(HookRegistry).find('product')).toBeDefined();
    expect(t.app.get(WorkflowRegistry).find('discovered', 'run')).toBeDefined();
    const handlers = t.app.get(EventHandlers);
    expect(handlers.subscriptions([]).of('product', 'created')).toEqual([
      'event/Subscriber.created',
    ]);
    // The first boot's handlers are asked for on an empty database only; asked here, they
    // come from the same reading.
    const firstBoot = t.app.get<FirstBootService, { firstBootHandlers(): object[] }>(
      FirstBootService,
    );
    expect(firstBoot.firstBootHandlers().map((h) => h.constructor.name)).toContain(
      'FirstBootHandler',
    );
    expect(listed).toHaveBeenCalledTimes(1);
  });
});
