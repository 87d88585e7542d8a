import { HttpException, Injectable } from '@nestjs/common';
import * as bcrypt from 'bcryptjs';
import { ImportReport, importRows } from '@app/platform';
import { EventBus } from '@app/bus';
import { AuthService, BCRYPT_ROUNDS } from '../auth/auth.service';
import { UserDoc } from '../users/user.collection';
import { assertStrongPassword } from '../auth/password-policy';
import { AuthException } from '../auth.errors';
import { ImportMemberDto } from './member-import.dto';

export interface ImportedMember {
  id: string;
  email: string;
  username: string;
}

/**
 * Members in bulk (docs/decisions/import.md): registration's rules (a free email, the password
 * policy, a free username, the first account and ADMIN_EMAILS as admins) and its
 * `user.registered`, without a token per member.
 */
@Injectable()
export class MemberImportService {
  constructor(
    private readonly auth: AuthService,
    private readonly bus: EventBus,
  ) {}

  import(rows: readonly unknown[]): Promise<ImportReport<ImportedMember>> {
    return importRows(this.bus, ImportMemberDto, rows, {
      row: async (row) => {
        const { password, password_hash, ...fields } = row;
        await this.auth.assertEmailFree(fields.email);
        return toImported(await this.auth.createAccount(fields, await this.hashOf(row, password, password_hash)));
      },
      batch: async (batch) => {
        const accounts = batch.map((row) => {
          const { password, password_hash, ...dto } = row;
          return { dto, hash: () => this.hashOf(row, password, password_hash) };
        });
        return (await this.auth.createAccounts(accounts)).map((user) => (user instanceof HttpException ? user : toImported(user)));
      },
    });
  }

  private async hashOf(row: ImportMemberDto, password?: string, hash?: string): Promise<string> {
    if (hash !== undefined && password !== undefined) throw new AuthException('VALIDATION_FAILED', 'Send either password or password_hash, not both');
    if (hash !== undefined) return hash;
    if (password === undefined) throw new AuthException('VALIDATION_FAILED', 'password or password_hash is required', [{ field: 'password', messages: ['Password is required'] }]);
    assertStrongPassword(password, 'password', [row.email, row.name]);
    return bcrypt.hash(password, BCRYPT_ROUNDS);
  }
}

const toImported = (user: UserDoc): ImportedMember => ({ id: user._id, email: user.email, username: user.username });
