import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ParseKeyPipe } from '../common/parse-key.pipe';
import { RequestContext } from '../common/request-context';
import { ApiKeyService } from './api-key.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@ApiTags('api keys')
@Controller('auth/api-keys')
export class ApiKeyController {
  constructor(
    private readonly apiKeys: ApiKeyService,
    private readonly context: RequestContext,
  ) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: 'The secret is shown only here' })
  create(@Body() dto: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.apiKeys.create(this.context.requireIdentity().userKey, dto.name, dto.expiresAt);
  }

  @Get()
  @ApiOkResponse({ type: [ApiKeyDto], description: "The caller's keys that are not revoked" })
  async list(): Promise<ApiKeyDto[]> {
    const keys = await this.apiKeys.list(this.context.requireIdentity().userKey);
    return keys.map(({ key, name, createdAt, expiresAt, lastUsedAt }) => ({
      id: key,
      name,
      createdAt,
      expiresAt,
      lastUsedAt,
    }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked: the key is refused from now on' })
  revoke(@Param('id', ParseKeyPipe) id: number): Promise<void> {
    return this.apiKeys.revoke(this.context.requireIdentity().userKey, id);
  }
}
