/**
 * What Atrium gives an application's modules, in one import (the injectable services
 * come from global modules: no module to import for them): entity types with child
 * groups and secured properties, their hooks, workflows, and the scoped data API both
 * read and write with (README, "Add an entity type" and "Write a workflow").
 */
export { SystemColumns } from './common/system-columns.entity';
export {
  BusinessEntity,
  ChildGroup,
  Computed,
  EntityHooks,
  Label,
  Secured,
} from './entity/entity.decorators';
export type { BusinessEntityOptions } from './entity/entity.decorators';
export type { HookContext } from './entity/entity-hooks';
export { BusinessRuleError } from './entity/entity.errors';
export type { EntityRecord } from './entity/entity-record';
export { EntityService } from './entity/entity.service';
export type { JoinedTransaction, WriteResult } from './entity/entity.service';
export type { Identity } from './common/identity';
export { FetchService } from './fetch/fetch.service';
export type { ScopedData } from './data/scoped-data';
export type { EntityQuery } from './fetch/fetch.tree';
export { Workflow, WorkflowMethod } from './workflow/workflow.decorators';
export type { WorkflowMethodOptions } from './workflow/workflow.decorators';
export { WorkflowError } from './workflow/workflow.errors';
export type { WorkflowContext } from './workflow/workflow.service';
