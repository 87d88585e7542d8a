export * from './catalogue';
export * from './product.dto';
export * from './review.dto';
export * from './activity.dto';
export * from './list.dto';
export * from './hashtags';
export * from './tag.dto';
