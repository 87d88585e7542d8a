import type { Role } from '@app/contracts';

/** Whether the session may open the Moderation screen (the server checks the token's role again). */
export const canModerate = (role: Role | undefined): boolean => role === 'moderator' || role === 'admin';
