import {
  Controller,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiBadRequestResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiPayloadTooLargeResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentIdentity } from '../http/caller.decorators';
import { Identity } from '../common/identity';
import { HttpRequest, HttpResponse, nodeRequestOf } from '../http/http.types';
import { RequireContentType } from '../http/content-type.guard';
import { ParseKeyPipe } from '../http/parse-key.pipe';
import { StoredFileDto, StorageService, VersionDto } from './storage.service';

@ApiTags('storage')
@Controller('storage')
export class StorageController {
  constructor(
    private readonly storage: StorageService,
    private readonly http: HttpAdapterHost,
  ) {}

  @Post()
  @HttpCode(201)
  @RequireContentType('multipart/form-data')
  @ApiConsumes('multipart/form-data')
  @ApiCreatedResponse({
    description: '{id, version, name, contentType, size, sha256, dateCreated}',
  })
  @ApiPayloadTooLargeResponse({ description: 'Larger than MAX_UPLOAD_BYTES; nothing stored' })
  @ApiNotFoundResponse({ description: 'id names no file of the organization' })
  upload(
    @CurrentIdentity() identity: Identity,
    @Req() request: HttpRequest,
  ): Promise<StoredFileDto> {
    return this.storage.upload(identity, nodeRequestOf(request));
  }

  @Get()
  @ApiQuery({ name: 'id', required: true })
  @ApiQuery({ name: 'version', required: false })
  @ApiQuery({ name: 'action', required: false, enum: ['download', 'view'] })
  @ApiOkResponse({ description: 'The bytes; 206 for a Range, 304 for If-None-Match, 416' })
  @ApiBadRequestResponse({ description: 'id missing or not a number' })
  @ApiNotFoundResponse({ description: 'Unknown file or version' })
  async download(
    @CurrentIdentity() identity: Identity,
    @Query('id') id: string | undefined,
    @Query('version') version: string | undefined,
    @Query('action') action: string | undefined,
    @Headers('range') range: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() response: HttpResponse,
  ): Promise<void> {
    const download = await this.storage.download(identity, {
      id,
      version,
      action,
      range,
      ifNoneMatch,
    });
    // The status varies (200, 206, 304, 416): written through Nest's adapter, which streams
    // a StreamableFile on either platform.
    const { httpAdapter } = this.http;
    for (const [name, value] of Object.entries(download.headers)) {
      httpAdapter.setHeader(response, name, value);
    }
    const body = download.body && new StreamableFile(download.body);
    httpAdapter.reply(response, body, download.status);
  }

  @Get(':id/versions')
  @ApiOkResponse({ description: '[{version, name, contentType, size, sha256, dateCreated}]' })
  @ApiNotFoundResponse({ description: 'Unknown file' })
  versions(
    @CurrentIdentity() identity: Identity,
    @Param('id', ParseKeyPipe) id: number,
  ): Promise<VersionDto[]> {
    return this.storage.versions(identity, id);
  }
}
