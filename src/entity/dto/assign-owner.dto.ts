import { IsInt, IsPositive } from 'class-validator';

export class AssignOwnerDto {
  /** The user who will own the record and its children. */
  @IsInt()
  @IsPositive()
  userKey: number;
}
