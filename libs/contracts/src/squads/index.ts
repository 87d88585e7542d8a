export * from './squads.dto';
export * from './squads.views';
