export * from './user-cards.collection';
export * from './user-cards.service';
export * from './user-cards.module';
export * from './blocks.collection';
export * from './blocks.service';
export * from './blocks.module';
