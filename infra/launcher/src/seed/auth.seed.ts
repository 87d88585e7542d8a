import { AuthResult } from '@app/contracts';
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

/** Demo members, registered as anyone would; the first is the demo login the launcher prints. */
export async function seedAuth(ctx: SeedContext): Promise<void> {
  for (const member of DEMO_MEMBERS) {
    const result = await ctx.client.request<AuthResult>('POST', '/auth/register', undefined, {
      ...member,
      password: DEMO_PASSWORD,
    });
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
