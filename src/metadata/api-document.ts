import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { EntityRegistry } from '../model/entity.registry';
import { WorkflowService } from '../workflow/workflow.service';
import { entityDocument } from './openapi.entities';
import { SHARED_SCHEMAS } from './openapi.shared';
import { workflowPaths } from './openapi.workflows';

/**
 * The OpenAPI document with a path per entity type and per workflow method, and their
 * schemas, built from the registries: an application's own types and workflows appear
 * with no code of its own (the generic routes they replace are left out of it).
 */
@Injectable()
export class ApiDocument {
  constructor(
    private readonly registry: EntityRegistry,
    private readonly workflows: WorkflowService,
  ) {}

  extend(document: OpenAPIObject): OpenAPIObject {
    const entities = entityDocument(this.registry.all());
    return {
      ...document,
      paths: { ...document.paths, ...entities.paths, ...workflowPaths(this.workflows.list()) },
      components: {
        ...document.components,
        schemas: { ...document.components?.schemas, ...SHARED_SCHEMAS, ...entities.schemas },
      },
    };
  }
}
