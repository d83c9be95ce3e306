import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import type { HttpResponse } from '../http/http.types';
import { ParseKeyPipe } from '../http/parse-key.pipe';
import { RequireContentType } from '../http/content-type.guard';
import { AssignOwnerDto } from './dto/assign-owner.dto';
import { EntityRecord } from '../model/entity-record';
import { EntityService, WriteResult } from './entity.service';

/** In the OpenAPI document as a path per entity type instead (metadata/api-document.ts). */
@ApiExcludeController()
@Controller('rest/entity')
export class EntityController {
  constructor(private readonly entities: EntityService) {}

  @Get(':name/:key')
  async read(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<EntityRecord> {
    const { entity, etag } = await this.entities.read(identity, name, key);
    response.header('ETag', etag);
    return entity;
  }

  @Post(':name')
  @HttpCode(200)
  @RequireContentType('application/json')
  create(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Body() body: unknown,
  ): Promise<WriteResult> {
    return this.entities.create(identity, name, body);
  }

  @Post(':name/:key')
  @HttpCode(200)
  @RequireContentType('application/json')
  update(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Body() body: unknown,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    return this.entities.update(identity, name, key, body, ifMatch);
  }

  @Post(':name/:key/owner')
  @HttpCode(200)
  @RequireContentType('application/json')
  assign(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Body() body: AssignOwnerDto,
  ): Promise<WriteResult> {
    return this.entities.assign(identity, name, key, body.userKey);
  }

  @Delete(':name/:key')
  delete(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Headers('if-match') ifMatch?: string,
  ): Promise<WriteResult> {
    return this.entities.delete(identity, name, key, ifMatch);
  }
}
