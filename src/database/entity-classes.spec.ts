import { TypeOrmModule } from '@nestjs/typeorm';
import { Entity, PrimaryColumn } from 'typeorm';
import { entityClasses } from './entity-classes';

@Entity('entity_classes_probe')
class Probe {
  @PrimaryColumn()
  key: number;
}

describe('entityClasses', () => {
  it('finds the classes a module registers with TypeOrmModule.forFeature', () => {
    expect(entityClasses()).not.toContain(Probe);
    TypeOrmModule.forFeature([Probe]);
    expect(entityClasses()).toContain(Probe);
  });
});
