import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { DELIVERY_STATES, type DeliveryAttempt } from '../entities/webhook-delivery.entity';

export class CreateWebhookDto {
  @ApiProperty({ example: 'Payments' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ example: 'https://example.com/hooks/atrium' })
  @IsString()
  @Length(1, 2000)
  url: string;

  @ApiProperty({ example: 'invoice.created, invoice.updated' })
  @IsString()
  @Length(1, 2000)
  events: string;

  @ApiPropertyOptional({ example: "status = 'paid'", description: 'A FETCH condition' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  condition?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  active?: boolean;
}

export class CreatedWebhookDto {
  @ApiProperty() key: number;
  @ApiProperty({ description: 'The signing secret: shown only in this response' })
  secret: string;
}

export class WebhookSecretDto {
  @ApiProperty({ description: 'The new signing secret, shown only here: the old one ends now' })
  secret: string;
}

export class DeliveryStartedDto {
  @ApiProperty({ description: 'The delivery, in the webhook’s delivery log' }) delivery: number;
}

export class DeliveryAttemptDto implements DeliveryAttempt {
  @ApiProperty({ type: String, format: 'date-time' }) at: string;
  @ApiPropertyOptional({ description: "The receiver's HTTP status, when it answered" })
  status?: number;
  @ApiProperty() durationMs: number;
  @ApiPropertyOptional({ description: 'Why it failed: a timeout, a refused address…' })
  error?: string;
}

export class DeliveryDto {
  @ApiProperty() key: number;
  @ApiProperty({ description: 'The `webhook-id` header: the event’s id' }) eventId: string;
  @ApiProperty({ example: 'invoice.updated' }) eventType: string;
  @ApiProperty({ enum: DELIVERY_STATES }) state: string;
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempts: DeliveryAttemptDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'The delivery this one replays' })
  replayOf: number | null;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt?: Date | null;
  @ApiPropertyOptional({
    type: Object,
    nullable: true,
    description: "The body sent (one delivery only); null once its event's history was purged",
  })
  payload?: object | null;
}
