export * from './moderation.dto';
