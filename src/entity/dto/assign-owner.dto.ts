import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsPositive } from 'class-validator';

export class AssignOwnerDto {
  @ApiProperty({ description: 'The user who will own the record and its children', example: 7 })
  @IsInt()
  @IsPositive()
  userKey: number;
}
