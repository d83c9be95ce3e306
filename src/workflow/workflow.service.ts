import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Identity } from '../common/identity';
import { RequestContext } from '../common/request-context';
import { StatementSlots } from '../database/statement-slots';
import { translateDatabaseError } from '../entity/database-errors';
import { bindArguments } from './workflow.arguments';
import { ArgumentDefinition } from './workflow.decorators';
import { WorkflowRegistry } from './workflow.registry';

/** What a workflow method gets after its arguments. */
export interface WorkflowContext {
  /** The method's transaction: pass it to EntityService and FetchService calls. */
  manager: EntityManager;
  identity: Identity;
}

export interface WorkflowDescription {
  name: string;
  methods: { name: string; access: 'everyone' | 'admin'; arguments: ArgumentDefinition[] }[];
}

/** Runs workflow methods (spec 4.4): arguments checked, one transaction, the caller's identity. */
@Injectable()
export class WorkflowService {
  constructor(
    private readonly registry: WorkflowRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly context: RequestContext,
    private readonly slots: StatementSlots,
  ) {}

  list(): WorkflowDescription[] {
    return this.registry.all().map(({ name, methods }) => ({
      name,
      methods: methods.map((m) => ({ name: m.name, access: m.access, arguments: m.arguments })),
    }));
  }

  /**
   * The method's result: an object as it is, anything else as `{"result": value}`.
   * Any error rolls the transaction back; HTTP errors (a workflow's own, a hook's 424)
   * keep their status, database conflicts become 409, anything else a 500.
   */
  async run(workflow: string, methodName: string, body: unknown): Promise<object> {
    const method = this.registry.find(workflow, methodName);
    if (!method) {
      throw new NotFoundException(
        this.registry.has(workflow)
          ? `Workflow "${workflow}" has no method "${methodName}"`
          : `Unknown workflow "${workflow}"`,
      );
    }
    const identity = this.context.requireIdentity();
    if (method.access === 'admin' && !identity.isAdmin) {
      throw new ForbiddenException(`Only administrators may run ${workflow}.${methodName}`);
    }
    const args = bindArguments(method, body);
    let result: unknown;
    try {
      result = await this.slots.run(identity.userKey, () =>
        this.context.runWorkflow(`${workflow}.${methodName}`, () =>
          this.dataSource.transaction(async (manager) =>
            method.run(...args, { manager, identity } satisfies WorkflowContext),
          ),
        ),
      );
    } catch (error) {
      throw translateDatabaseError(error);
    }
    const isObject = typeof result === 'object' && result !== null && !Array.isArray(result);
    return isObject ? (result as object) : { result: result ?? null };
  }
}
