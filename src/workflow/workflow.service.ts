import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Action } from '../access/access.depth';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { ScopedData } from '../data/scoped-data';
import { EntityRegistry } from '../entity/entity.registry';
import { EntityService } from '../entity/entity.service';
import { StatementSlots } from '../database/statement-slots';
import { translateDatabaseError } from '../entity/database-errors';
import { bindArguments } from './workflow.arguments';
import { ArgumentType } from './workflow.decorators';
import { WorkflowMethodDefinition, WorkflowRegistry } from './workflow.registry';

/** What a workflow method gets after its arguments. */
export interface WorkflowContext {
  /**
   * Entities and FETCH inside the method's transaction, as the caller: what it reads and
   * writes is limited by the caller's organization and privileges.
   */
  data: ScopedData;
  identity: Identity;
}

export interface WorkflowDescription {
  name: string;
  methods: {
    name: string;
    access: 'everyone' | 'admin';
    requires: Record<string, Action>;
    roles: string[];
    arguments: { name: string; type: ArgumentType; required: boolean }[];
  }[];
}

/** Runs workflow methods (spec 4.4): arguments checked, one transaction, the caller's identity. */
@Injectable()
export class WorkflowService {
  constructor(
    private readonly registry: WorkflowRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly slots: StatementSlots,
    private readonly entities: EntityService,
    private readonly access: AccessService,
    private readonly types: EntityRegistry,
  ) {}

  list(): WorkflowDescription[] {
    return this.registry.all().map(({ name, methods }) => ({
      name,
      methods: methods.map(({ name, access, requires, roles, arguments: args }) => ({
        name,
        access,
        requires,
        roles,
        arguments: args.map(({ name, type, optional }) => ({ name, type, required: !optional })),
      })),
    }));
  }

  /**
   * The method's result: an object as it is, anything else as `{"result": value}`.
   * Any error rolls the transaction back; HTTP errors (a workflow's own, a hook's 424)
   * keep their status, database conflicts become 409, anything else a 500.
   */
  async run(
    identity: Identity,
    workflow: string,
    methodName: string,
    body: unknown,
  ): Promise<object> {
    const method = this.registry.find(workflow, methodName);
    if (!method) {
      throw new NotFoundException(
        this.registry.has(workflow)
          ? `Workflow "${workflow}" has no method "${methodName}"`
          : `Unknown workflow "${workflow}"`,
      );
    }
    if (method.access === 'admin' && !identity.isAdmin) {
      throw new ForbiddenException(`Only administrators may run ${workflow}.${methodName}`);
    }
    await this.assertGranted(method, identity);
    const args = bindArguments(method, body);
    let result: unknown;
    try {
      result = await this.slots.run(identity.userKey, () =>
        this.dataSource.transaction(
          async (manager) =>
            // Awaited here: a method that throws at once rolls back like one that rejects.
            await method.run(...args, {
              data: this.entities.scopedData(identity, {
                manager,
                workflow: `${workflow}.${methodName}`,
              }),
              identity,
            } satisfies WorkflowContext),
        ),
      );
    } catch (error) {
      throw translateDatabaseError(error);
    }
    const isObject = typeof result === 'object' && result !== null && !Array.isArray(result);
    return isObject ? (result as object) : { result: result ?? null };
  }

  /** 403 unless the caller's roles grant what the method requires. */
  private async assertGranted(method: WorkflowMethodDefinition, identity: Identity): Promise<void> {
    const path = `${method.workflow}.${method.name}`;
    const scope = await this.access.scopeOf(identity);
    if (method.roles.length > 0 && !scope.holdsAny(method.roles)) {
      throw new ForbiddenException(`${path} needs one of the roles ${method.roles.join(', ')}`);
    }
    for (const [entity, action] of Object.entries(method.requires)) {
      if (scope.depthThroughApi(this.types.find(entity)!, action) === 'none') {
        throw new ForbiddenException(`${path} needs ${action} on ${entity}`);
      }
    }
  }
}
