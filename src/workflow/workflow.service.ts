import { ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import { Action } from '../access/access.depth';
import { AccessScope } from '../access/access.scope';
import { AccessService } from '../access/access.service';
import { Identity } from '../common/identity';
import { DataService } from '../data/data.service';
import { ScopedData } from '../data/scoped-data';
import { translateWriteError } from '../http/database-refusals';
import { StatementSlots } from '../http/statement-slots';
import { EntityRegistry } from '../model/entity.registry';
import { SYSTEM_COLUMNS } from '../model/entity-type';
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
    private readonly slots: StatementSlots,
    private readonly data: DataService,
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
    const path = `${workflow}.${methodName}`;
    this.assertMayRun(await this.access.scopeOf(identity), path, method);
    const args = bindArguments(method, body);
    let result: unknown;
    try {
      result = await this.slots.run(identity.userKey, () =>
        this.data.transaction(
          identity,
          // Awaited here: a method that throws at once rolls back like one that rejects.
          async (data) => await method.run(...args, { data, identity } satisfies WorkflowContext),
          path,
        ),
      );
    } catch (error) {
      throw translateWriteError(error, SYSTEM_COLUMNS);
    }
    const isObject = typeof result === 'object' && result !== null && !Array.isArray(result);
    return isObject ? (result as object) : { result: result ?? null };
  }

  /** 403 unless the caller may run the method (access.scope.ts decides). */
  private assertMayRun(scope: AccessScope, path: string, method: WorkflowMethodDefinition): void {
    const refusal = scope.runRefusal(path, {
      administratorsOnly: method.access === 'admin',
      roles: method.roles,
      requires: Object.entries(method.requires).map(([entity, action]) => [
        this.types.find(entity)!,
        action,
      ]),
    });
    if (refusal) throw new ForbiddenException(refusal);
  }
}
