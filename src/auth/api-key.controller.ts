import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ParseKeyPipe } from '../common/parse-key.pipe';
import { Identity } from '../common/identity';
import { CurrentIdentity } from './auth.decorators';
import { ApiKeyService } from './api-key.service';
import { ApiKeyDto, CreateApiKeyDto, CreatedApiKeyDto } from './dto/api-key.dto';

@ApiTags('api keys')
@Controller('auth/api-keys')
export class ApiKeyController {
  constructor(private readonly apiKeys: ApiKeyService) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedApiKeyDto, description: 'The secret is shown only here' })
  create(
    @CurrentIdentity() identity: Identity,
    @Body() dto: CreateApiKeyDto,
  ): Promise<CreatedApiKeyDto> {
    return this.apiKeys.create(identity.userKey, dto.name, dto.expiresAt);
  }

  @Get()
  @ApiOkResponse({ type: [ApiKeyDto], description: "The caller's keys that are not revoked" })
  async list(@CurrentIdentity() identity: Identity): Promise<ApiKeyDto[]> {
    const keys = await this.apiKeys.list(identity.userKey);
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
  revoke(
    @CurrentIdentity() identity: Identity,
    @Param('id', ParseKeyPipe) id: number,
  ): Promise<void> {
    return this.apiKeys.revoke(identity.userKey, id);
  }
}
