import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
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
  // A form posts an empty field for a locale left blank: that is the default too.
  @Transform(({ value }: { value: unknown }) => (value === '' ? undefined : value))
  @IsOptional()
  @IsString()
  @Length(2, 10)
  locale?: string;
}
