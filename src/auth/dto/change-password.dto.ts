import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

/** POST /auth/password form fields; the names are the spec's (4.1). */
export class ChangePasswordDto {
  @ApiProperty()
  @IsString()
  @MaxLength(1000)
  'current-password': string;

  @ApiProperty({ minLength: 8 })
  @IsString()
  @MaxLength(1000)
  'set-password': string;

  @ApiProperty()
  @IsString()
  @MaxLength(1000)
  'confirm-password': string;
}
