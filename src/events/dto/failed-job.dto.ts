import { ApiProperty } from '@nestjs/swagger';

export class FailedJobDto {
  @ApiProperty({ format: 'uuid', description: 'The dead letter: what a retry names' })
  id: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The job that failed, as its sender was given it',
  })
  jobId: string | null;
  @ApiProperty({ description: "The job's name, or `event/<Provider>.<method>` for a subscriber" })
  queue: string;
  @ApiProperty({ type: String, nullable: true, description: "The last failure's message" })
  error: string | null;
  @ApiProperty({ description: 'Attempts made' }) attempts: number;
  @ApiProperty({ type: String, format: 'date-time' }) createdOn: Date;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) failedAt: Date | null;
}
