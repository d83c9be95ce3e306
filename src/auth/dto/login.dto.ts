import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length, MaxLength } from 'class-validator';

/** POST /auth, as JSON or as a form (spec 4.1). */
export class LoginDto {
  @ApiProperty({ example: 'admin' })
  @IsString()
  @Length(1, 100)
  user: string;

  @ApiProperty()
  @IsString()
  @MaxLength(1000)
  password: string;

  @ApiPropertyOptional({ default: 'RO' })
  @IsOptional()
  @IsString()
  @Length(2, 10)
  locale?: string;
}
