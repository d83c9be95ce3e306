import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Column, JoinColumn, ManyToOne } from 'typeorm';
import { SystemColumns } from '../src/model/system-columns.entity';
import { EntityHooks } from '../src/data/entity-hooks';
import { BusinessEntity, ChildGroup } from '../src/model/entity.decorators';
import { createTestApp } from './helpers/test-app';

// Mistakes an application developer can make, caught when the app boots rather than on
// the first request that trips over them. The classes are declared inside each test:
// TypeORM keeps every decorated entity class it has seen, so a broken one declared at
// the top would break the other test's boot too.

describe('entity registry at boot', () => {
  it('fails the boot for hooks of an entity type that does not exist', async () => {
    @EntityHooks('acount')
    class MisspeltHooks {
      onBeforeInsert(): void {}
    }
    @Module({ providers: [MisspeltHooks] })
    class MisspeltHooksModule {}

    await expect(createTestApp({}, [MisspeltHooksModule])).rejects.toThrow(
      "@EntityHooks('acount'): no entity type has that name",
    );
  });

  it('fails the boot for a child whose link to its parent is not named id_<parent>', async () => {
    @BusinessEntity('shelf_item')
    class ShelfItem extends SystemColumns {
      @Column({ type: 'bigint' }) parentShelf: number;
      @ManyToOne('Shelf', { nullable: false, onDelete: 'CASCADE' })
      @JoinColumn({ name: 'parent_shelf' })
      shelf?: unknown;
    }
    @BusinessEntity('shelf')
    class Shelf extends SystemColumns {
      @ChildGroup(() => ShelfItem) items?: ShelfItem[];
    }
    @Module({ imports: [TypeOrmModule.forFeature([Shelf, ShelfItem])] })
    class BadlyLinkedChildModule {}

    await expect(createTestApp({}, [BadlyLinkedChildModule])).rejects.toThrow(
      /shelf_item of shelf links to it through parent_shelf; name the column id_shelf/,
    );
  });
});
