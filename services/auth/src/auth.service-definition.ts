import { ServiceDefinition } from '@app/platform';
import { authMailCollection, loginChallengesCollection, passwordResetsCollection, twoFactorCollection } from './account/account.collections';
import { AuthModule } from './auth/auth.module';
import { ImportModule } from './import/import.module';
import { usersCollection } from './users/user.collection';

/** services/auth: credentials and JWT issue (/api/auth/*). */
export const authService: ServiceDefinition = {
  name: 'auth',
  collections: [usersCollection, passwordResetsCollection, authMailCollection, twoFactorCollection, loginChallengesCollection],
  imports: [AuthModule, ImportModule],
};
