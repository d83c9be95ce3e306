import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiTags,
  ApiUnsupportedMediaTypeResponse,
} from '@nestjs/swagger';
import { FetchService } from './fetch.service';
import { FetchDocument } from './fetch.tree';
import { RequireTextGuard } from './require-text.guard';

const EXAMPLE = 'FETCH account (name, key AS id) ORDER BY name ASC LIMIT 10';

@ApiTags('fetch')
@Controller('rest/fetch')
export class FetchController {
  constructor(private readonly fetch: FetchService) {}

  @Post('parse')
  @HttpCode(200)
  @UseGuards(RequireTextGuard)
  @ApiConsumes('text/plain')
  @ApiBody({ schema: { type: 'string', example: EXAMPLE } })
  @ApiOkResponse({ description: '{"fetch": [tree]} (spec 2.6, FETCH.md §3)' })
  @ApiBadRequestResponse({ description: '{detail, line, column}: a syntax or tree error' })
  @ApiPayloadTooLargeResponse({ description: 'Longer than FETCH_MAX_QUERY_BYTES' })
  @ApiUnsupportedMediaTypeResponse({ description: 'Content-Type is not text/plain' })
  parse(@Body() text: unknown): FetchDocument {
    // An empty body is never parsed, so it arrives as undefined: the parser calls it empty.
    return this.fetch.parse(typeof text === 'string' ? text : '');
  }
}
