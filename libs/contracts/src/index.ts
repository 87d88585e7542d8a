export * from './http/envelope';
export * from './http/pagination';
export * from './users/user-card';
export * from './auth/auth.dto';
export * from './events/catalogue';
export * from './events/envelope';
