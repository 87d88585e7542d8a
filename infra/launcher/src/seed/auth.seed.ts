import * as bcrypt from 'bcryptjs';
import { AuthResult } from '@app/contracts';
import { BCRYPT_ROUNDS } from '../../../../services/auth/src/auth/auth.service';
import { assertAllImported } from './stack-importer';
import { SeedContext } from './seed-client';

export const DEMO_PASSWORD = 'squad-demo-2026';

const DEMO_MEMBERS = [
  { name: 'Ayşe Yılmaz', email: 'ayse@demo.local' },
  { name: 'Mehmet Kaya', email: 'mehmet@demo.local' },
  { name: 'Elif Demir', email: 'elif@demo.local' },
  { name: 'Can Öztürk', email: 'can@demo.local' },
  { name: 'Zeynep Arslan', email: 'zeynep@demo.local' },
  { name: 'Emre Şahin', email: 'emre@demo.local' },
  { name: 'Selin Aydın', email: 'selin@demo.local' },
  { name: 'Burak Çelik', email: 'burak@demo.local' },
];

/**
 * Demo members through the members import (registration's rules and `user.registered`; the
 * first becomes the admin and the demo login the launcher prints), one password hash shared by
 * all, then each logs in through the API for the token later steps act with.
 */
export async function seedAuth(ctx: SeedContext): Promise<void> {
  const password_hash = await bcrypt.hash(DEMO_PASSWORD, BCRYPT_ROUNDS);
  assertAllImported('demo members', await ctx.importer.members(DEMO_MEMBERS.map((m) => ({ ...m, password_hash }))));
  for (const member of DEMO_MEMBERS) {
    const result = await ctx.client.request<AuthResult>('POST', '/auth/login', undefined, { email: member.email, password: DEMO_PASSWORD });
    ctx.users.push({
      id: result.user.id,
      username: result.user.username,
      email: result.user.email,
      name: result.user.name,
      password: DEMO_PASSWORD,
      token: result.token,
    });
  }
}
