import {
  applyDecorators,
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Res,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Requires } from '../access/requires.decorator';
import { CsrfExempt, CurrentIdentity, Public } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import type { HttpResponse } from '../http/http.types';
import { ParseKeyPipe } from '../http/parse-key.pipe';
import { RequireContentType } from '../http/content-type.guard';
import { AssignOwnerDto } from './dto/assign-owner.dto';
import { recordMethodNotAllowed, typeMethodNotAllowed } from './entity.errors';
import { EntityRecord } from '../model/entity-record';
import { EntityService, WriteResult } from './entity.service';
import { EntityHistoryService, HistoryEntry } from './entity-history.service';
import { historyCursor, HistoryQuery, instant, parseHistoryQuery } from './history.query';

/** A route that only says what to do instead: no credential or CSRF token is needed. */
const AnswersAnyone = () => applyDecorators(Public(), CsrfExempt());

/** In the OpenAPI document as a path per entity type instead (metadata/api-document.ts). */
@ApiExcludeController()
@Controller('rest/entity')
export class EntityController {
  constructor(
    private readonly entities: EntityService,
    private readonly histories: EntityHistoryService,
  ) {}

  /** The record; with `asOf`, as it was at that instant (rebuilt from the change log). */
  @Get(':name/:key')
  async read(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Res({ passthrough: true }) response: HttpResponse,
    @Query('asOf') asOf?: string,
  ): Promise<EntityRecord> {
    if (asOf !== undefined) {
      return this.histories.asOf(identity, name, key, instant('asOf', asOf));
    }
    const { entity, etag } = await this.entities.read(identity, name, key);
    response.header('ETag', etag);
    return entity;
  }

  /** The record's history, newest first; X-Fetch-Next names the next page. */
  @Get(':name/:key/history')
  async history(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
    @Query() query: HistoryQuery,
    @Headers('x-fetch-cursor') cursor: string | undefined,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<HistoryEntry[]> {
    const { filter, limit } = parseHistoryQuery({ ...query, cursor });
    const page = await this.histories.history(identity, name, key, filter, limit);
    if (page.next !== undefined) response.header('X-Fetch-Next', historyCursor(page.next));
    return page.entries;
  }

  /** Erases the record's history but for one entry saying who did it (administrators). */
  @Post(':name/:key/history/purge')
  @Requires('purge-history')
  @HttpCode(200)
  purge(
    @CurrentIdentity() identity: Identity,
    @Param('name') name: string,
    @Param('key', ParseKeyPipe) key: number,
  ): Promise<{ purged: number }> {
    return this.histories.purge(identity, name, key);
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

  // Methods a client may well try, answered 405 with what to send instead (entity.errors.ts),
  // to anyone: they read and change nothing. One handler each: a second method decorator on
  // a handler replaces the first.
  @AnswersAnyone()
  @Get(':name')
  list(@Param('name') name: string): never {
    throw typeMethodNotAllowed('GET', name);
  }

  @AnswersAnyone()
  @Put(':name')
  putType(@Param('name') name: string): never {
    throw typeMethodNotAllowed('PUT', name);
  }

  @AnswersAnyone()
  @Patch(':name')
  patchType(@Param('name') name: string): never {
    throw typeMethodNotAllowed('PATCH', name);
  }

  @AnswersAnyone()
  @Delete(':name')
  deleteType(@Param('name') name: string): never {
    throw typeMethodNotAllowed('DELETE', name);
  }

  @AnswersAnyone()
  @Put(':name/:key')
  put(@Param('name') name: string, @Param('key') key: string): never {
    throw recordMethodNotAllowed('PUT', name, key);
  }

  @AnswersAnyone()
  @Patch(':name/:key')
  patch(@Param('name') name: string, @Param('key') key: string): never {
    throw recordMethodNotAllowed('PATCH', name, key);
  }
}
