import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { ParseKeyPipe } from '../http/parse-key.pipe';
import { Identity } from '../common/identity';
import { CurrentIdentity } from '../http/caller.decorators';
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
    return this.apiKeys.create(identity, dto.name, dto.expiresAt);
  }

  @Get()
  @ApiOkResponse({ type: [ApiKeyDto], description: "The caller's keys that are not revoked" })
  list(@CurrentIdentity() identity: Identity): Promise<ApiKeyDto[]> {
    return this.apiKeys.list(identity.userKey);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked: the key is refused from now on' })
  revoke(
    @CurrentIdentity() identity: Identity,
    @Param('id', ParseKeyPipe) id: number,
  ): Promise<void> {
    return this.apiKeys.revoke(identity, id);
  }
}
