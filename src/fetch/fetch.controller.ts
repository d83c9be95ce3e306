import { Body, Controller, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import type { HttpRequest, HttpResponse } from '../http/http.types';
import { contentTypeOf, RequireContentType } from '../http/content-type.guard';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import { FetchInput, FetchService } from './fetch.service';
import { FetchDocument } from './fetch.tree';
import { ResultColumn } from './fetch.select';

const EXAMPLE = 'FETCH account (name, key AS id) ORDER BY name ASC LIMIT 10';
const TEXT = 'text/plain';
const JSON_TYPE = 'application/json';

/** The FETCH text or tree of a request; an empty text body arrives as undefined. */
function inputOf(request: HttpRequest, body: unknown): FetchInput {
  if (contentTypeOf(request) === JSON_TYPE) return { json: body };
  return { text: typeof body === 'string' ? body : '' };
}

@ApiTags('fetch')
@Controller('rest')
export class FetchController {
  constructor(private readonly fetch: FetchService) {}

  @Post('fetch')
  @HttpCode(200)
  @RequireContentType(TEXT, JSON_TYPE)
  @ApiConsumes(TEXT, JSON_TYPE)
  @ApiBody({ schema: { type: 'string', example: EXAMPLE } })
  @ApiHeader({
    name: 'X-Fetch-Cursor',
    required: false,
    description: 'The next page (from X-Fetch-Next)',
  })
  @ApiHeader({
    name: 'X-Fetch-Count',
    required: false,
    description: '"true": answer X-Total-Count',
  })
  @ApiOkResponse({ description: 'Rows (spec 2.7); headers X-Fetch-Next, X-Total-Count' })
  @ApiBadRequestResponse({ description: '{detail[, line, column]}: syntax, names, types, limits' })
  @ApiPayloadTooLargeResponse({ description: 'Longer than FETCH_MAX_QUERY_BYTES' })
  @ApiServiceUnavailableResponse({ description: 'The query ran longer than STATEMENT_TIMEOUT_MS' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Neither text/plain nor application/json' })
  async run(
    @CurrentIdentity() identity: Identity,
    @Req() request: HttpRequest,
    @Body() body: unknown,
    @Headers('x-fetch-cursor') cursor: string | undefined,
    @Headers('x-fetch-count') count: string | undefined,
    @Res({ passthrough: true }) response: HttpResponse,
  ): Promise<Record<string, unknown>[]> {
    const result = await this.fetch.run(identity, inputOf(request, body), {
      cursor,
      count: count?.toLowerCase() === 'true',
    });
    const { compile, database } = result.timing;
    response.header(
      'Server-Timing',
      `compile;dur=${compile.toFixed(3)}, db;dur=${database.toFixed(3)}`,
    );
    if (result.next) response.header('X-Fetch-Next', result.next);
    if (result.total !== undefined) response.header('X-Total-Count', result.total);
    return result.rows;
  }

  @Post('fetch/parse')
  @HttpCode(200)
  @RequireContentType(TEXT)
  @ApiConsumes(TEXT)
  @ApiBody({ schema: { type: 'string', example: EXAMPLE } })
  @ApiOkResponse({ description: '{"fetch": [tree]} (spec 2.6, FETCH.md §3)' })
  @ApiBadRequestResponse({ description: '{detail, line, column}: a syntax or tree error' })
  @ApiPayloadTooLargeResponse({ description: 'Longer than FETCH_MAX_QUERY_BYTES' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Content-Type is not text/plain' })
  parse(@Body() text: unknown): FetchDocument {
    // An empty body is never parsed, so it arrives as undefined: the parser calls it empty.
    return this.fetch.parse(typeof text === 'string' ? text : '');
  }

  @Post('metadata/fetch')
  @HttpCode(200)
  @RequireContentType(TEXT, JSON_TYPE)
  @ApiConsumes(TEXT, JSON_TYPE)
  @ApiBody({ schema: { type: 'string', example: EXAMPLE } })
  @ApiOkResponse({
    description: '{columns:[{name, entity, property, type, aggregate?, nullable}]}',
  })
  @ApiBadRequestResponse({ description: 'As POST /rest/fetch' })
  metadata(
    @CurrentIdentity() identity: Identity,
    @Req() request: HttpRequest,
    @Body() body: unknown,
  ): Promise<{ columns: ResultColumn[] }> {
    return this.fetch.metadata(identity, inputOf(request, body));
  }
}
