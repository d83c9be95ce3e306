/**
 * What Atrium gives an application's modules, in one import: entity types with child
 * groups and secured properties, their hooks, workflows, and the scoped data API both
 * read and write with, after-commit event subscribers and jobs (docs/extending.md). A provider
 * that runs work of its own as a user injects DataService (global, as are EntityService and
 * FetchService: no module to import for them).
 */
export { SystemColumns } from './model/system-columns.entity';
export { BusinessEntity, ChildGroup, Computed, Label, Secured } from './model/entity.decorators';
export type { BusinessEntityOptions } from './model/entity.decorators';
export type { EntityRecord } from './model/entity-record';
export { EntityHooks } from './data/entity-hooks';
export type { HookContext } from './data/entity-hooks';
export { BusinessRuleError } from './entity/entity.errors';
export { EntityService } from './entity/entity.service';
export type { ReadResult, WriteResult } from './entity/entity.service';
export type { JoinedTransaction } from './entity/joined-transaction';
export type { Identity } from './common/identity';
export type { CallerAccess } from './access/access.scope';
export type { Privilege } from './access/access.privileges';
export { Requires } from './access/requires.decorator';
export type { Transaction } from './database/transaction';
export { FetchService } from './fetch/fetch.service';
export type { EntityQuery } from './fetch/fetch.tree';
export { DataService } from './data/data.service';
export type { ScopedData } from './data/scoped-data';
export { Workflow, WorkflowMethod } from './workflow/workflow.decorators';
export type { WorkflowMethodOptions } from './workflow/workflow.decorators';
export { WorkflowError } from './workflow/workflow.errors';
export type { WorkflowContext } from './workflow/workflow.service';
export { Job, OnEntityEvent } from './events/event.decorators';
export type { JobHandlerOptions } from './events/event.decorators';
export type { EntityEvent, EventOperation } from './events/entity-event';
export type { HandlerContext } from './events/event-handlers.service';
export type { JobOptions } from './queue/job-queue.service';
