import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsDate, IsOptional, IsString, Length, MinDate } from 'class-validator';

export class CreateApiKeyDto {
  @ApiProperty({ example: 'reporting job' })
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ description: 'ISO 8601; the key is refused from then on' })
  @IsOptional()
  @Type(() => Date)
  @IsDate()
  @MinDate(() => new Date(), { message: 'expiresAt must be in the future' })
  expiresAt?: Date;
}

export class CreatedApiKeyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'The secret: shown only in this response' }) key: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: Date | null;
}

export class ApiKeyDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, format: 'date-time' }) createdAt: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt: Date | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastUsedAt: Date | null;
}
