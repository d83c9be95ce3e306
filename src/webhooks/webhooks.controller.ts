import {
  Body,
  Controller,
  DefaultValuePipe,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { Requires } from '../access/requires.decorator';
import { Identity } from '../common/identity';
import { CurrentIdentity } from '../http/caller.decorators';
import { parseKey, ParseKeyPipe } from '../http/parse-key.pipe';
import {
  CreatedWebhookDto,
  CreateWebhookDto,
  DeliveryDto,
  DeliveryStartedDto,
  WebhookSecretDto,
} from './dto/webhook.dto';
import { DELIVERIES_LIMIT, WebhooksService } from './webhooks.service';

/** Webhooks are read, changed and deleted as entities (`/rest/entity/webhook`); the rest is here. */
@ApiTags('webhooks')
@Requires('manage-webhooks')
@Controller('rest/webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @ApiCreatedResponse({ type: CreatedWebhookDto, description: 'The secret is shown only here' })
  create(
    @CurrentIdentity() identity: Identity,
    @Body() dto: CreateWebhookDto,
  ): Promise<CreatedWebhookDto> {
    return this.webhooks.create(identity, dto);
  }

  @Post(':key/secret')
  @HttpCode(200)
  @ApiOkResponse({ type: WebhookSecretDto })
  async rotateSecret(
    @CurrentIdentity() identity: Identity,
    @Param('key', ParseKeyPipe) key: number,
  ): Promise<WebhookSecretDto> {
    return { secret: await this.webhooks.rotateSecret(identity, key) };
  }

  @Post(':key/test')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: DeliveryStartedDto, description: 'A webhook.test event, queued' })
  async test(
    @CurrentIdentity() identity: Identity,
    @Param('key', ParseKeyPipe) key: number,
  ): Promise<DeliveryStartedDto> {
    return { delivery: await this.webhooks.test(identity, key) };
  }

  @Get(':key/deliveries')
  @ApiQuery({ name: 'before', required: false, description: 'Deliveries older than this one' })
  @ApiQuery({ name: 'limit', required: false, description: `At most ${DELIVERIES_LIMIT}` })
  @ApiOkResponse({ type: [DeliveryDto], description: 'Newest first' })
  deliveries(
    @CurrentIdentity() identity: Identity,
    @Param('key', ParseKeyPipe) key: number,
    @Query('before') before: string | undefined,
    @Query('limit', new DefaultValuePipe(50), ParseIntPipe) limit: number,
  ): Promise<DeliveryDto[]> {
    return this.webhooks.deliveries(
      identity,
      key,
      before === undefined ? null : parseKey(before, 'before'),
      limit,
    );
  }

  @Get(':key/deliveries/:delivery')
  @ApiOkResponse({ type: DeliveryDto, description: 'With the body sent' })
  delivery(
    @CurrentIdentity() identity: Identity,
    @Param('key', ParseKeyPipe) key: number,
    @Param('delivery', ParseKeyPipe) delivery: number,
  ): Promise<DeliveryDto> {
    return this.webhooks.delivery(identity, key, delivery);
  }

  @Post(':key/deliveries/:delivery/replay')
  @HttpCode(202)
  @ApiAcceptedResponse({ type: DeliveryStartedDto, description: 'A new delivery of the same body' })
  @ApiConflictResponse({ description: "The event's history was purged: no body to send" })
  async replay(
    @CurrentIdentity() identity: Identity,
    @Param('key', ParseKeyPipe) key: number,
    @Param('delivery', ParseKeyPipe) delivery: number,
  ): Promise<DeliveryStartedDto> {
    return { delivery: await this.webhooks.replay(identity, key, delivery) };
  }
}
