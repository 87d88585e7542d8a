export * from './profile.dto';
export * from './settings.dto';
export * from './follows.dto';
export * from './discovery.dto';
