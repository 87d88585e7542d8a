import { Inject, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcryptjs';
import { DeleteAccountDto } from '@app/contracts';
import { AuthenticatedUser, MailOutboxWorker } from '@app/platform';
import { EventBus } from '@app/bus';
import { Collection, STORE, Store } from '@app/store';
import { authMailCollection, loginChallengesCollection, passwordResetsCollection, twoFactorCollection } from '../account/account.collections';
import { TwoFactorService } from '../account/two-factor.service';
import { AuthException } from '../auth.errors';
import { AuthService } from '../auth/auth.service';
import { UserDoc, usersCollection } from '../users/user.collection';

const WRONG_PASSWORD = 'Password is incorrect';

/**
 * Account deletion (issue 20 §5). The credentials row is erased, not tombstoned: the email can
 * register again (as a new member with a new id) and nothing of the old one is left to leak.
 */
@Injectable()
export class ErasureService {
  private readonly users: Collection<UserDoc>;

  constructor(
    @Inject(STORE) private readonly store: Store,
    private readonly auth: AuthService,
    private readonly twoFactor: TwoFactorService,
    private readonly bus: EventBus,
    private readonly mail: MailOutboxWorker,
  ) {
    this.users = store.collection(usersCollection);
  }

  /**
   * Signs the member out everywhere (auth.sessions_revoked), then erases the credentials with
   * user.deleted, which every service answers by erasing its part. A crash between the two
   * leaves a signed-out member who can sign in and ask again.
   */
  async deleteAccount(member: AuthenticatedUser, dto: DeleteAccountDto): Promise<void> {
    const user = await this.auth.currentSession(member);
    if (!(await bcrypt.compare(dto.password, user.password_hash))) {
      throw new AuthException('WRONG_CURRENT_PASSWORD', WRONG_PASSWORD, [{ field: 'password', messages: [WRONG_PASSWORD] }]);
    }
    await this.twoFactor.confirmSensitive(user._id, dto.code);
    await this.auth.revokeSessions(user, {});
    await this.bus.emitWith(
      {
        type: 'user.deleted',
        payload: { userId: user._id },
        key: user._id,
        actorId: user._id,
        proof: { collection: usersCollection, match: { _id: user._id }, present: false },
      },
      () => this.users.deleteOne({ _id: user._id }),
    );
  }

  /**
   * The rest of auth's rows about the member, and the mail files sent to them (first: the rows
   * name the addresses, so a rerun after a crash still finds the files); deletes only, so a
   * redelivery changes nothing.
   */
  async eraseAccountRows(userId: string): Promise<void> {
    const mails = this.store.collection(authMailCollection);
    await this.mail.forgetSentTo((await mails.find({ user_id: userId }, { projection: { to: 1 } })).map((m) => m.to));
    await this.store.collection(passwordResetsCollection).deleteMany({ user_id: userId });
    await this.store.collection(loginChallengesCollection).deleteMany({ user_id: userId });
    await mails.deleteMany({ user_id: userId });
    await this.store.collection(twoFactorCollection).deleteMany({ _id: userId });
    await this.users.deleteMany({ _id: userId });
  }
}
