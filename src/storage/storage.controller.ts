import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
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
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RequireContentType } from '../common/content-type.guard';
import { ParseKeyPipe } from '../common/parse-key.pipe';
import { StoredFileDto, StorageService, VersionDto } from './storage.service';

@ApiTags('storage')
@Controller('storage')
export class StorageController {
  constructor(private readonly storage: StorageService) {}

  @Post()
  @HttpCode(201)
  @RequireContentType('multipart/form-data')
  @ApiConsumes('multipart/form-data')
  @ApiCreatedResponse({
    description: '{id, version, name, contentType, size, sha256, dateCreated}',
  })
  @ApiPayloadTooLargeResponse({ description: 'Larger than MAX_UPLOAD_BYTES; nothing stored' })
  @ApiNotFoundResponse({ description: 'id names no file of the organization' })
  upload(@Req() request: FastifyRequest): Promise<StoredFileDto> {
    return this.storage.upload(request);
  }

  @Get()
  @ApiQuery({ name: 'id', required: true })
  @ApiQuery({ name: 'version', required: false })
  @ApiQuery({ name: 'action', required: false, enum: ['download', 'view'] })
  @ApiOkResponse({ description: 'The bytes; 206 for a Range, 304 for If-None-Match, 416' })
  @ApiBadRequestResponse({ description: 'id missing or not a number' })
  @ApiNotFoundResponse({ description: 'Unknown file or version' })
  async download(
    @Query('id') id: string | undefined,
    @Query('version') version: string | undefined,
    @Query('action') action: string | undefined,
    @Headers('range') range: string | undefined,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const download = await this.storage.download({ id, version, action, range, ifNoneMatch });
    reply.status(download.status).headers(download.headers);
    await reply.send(download.body ?? '');
  }

  @Get(':id/versions')
  @ApiOkResponse({ description: '[{version, name, contentType, size, sha256, dateCreated}]' })
  @ApiNotFoundResponse({ description: 'Unknown file' })
  versions(@Param('id', ParseKeyPipe) id: number): Promise<VersionDto[]> {
    return this.storage.versions(id);
  }
}
