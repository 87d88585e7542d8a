import { ValidationPipe } from '@nestjs/common';
import { CreateProductDto, CreateSquadDto, LoginDto, RegisterDto, UpdateProfileDto } from '../index';
import { emailProblem, nameProblem, normaliseEmail } from './text-rules';

// the services' pipe options (libs/platform/src/http/validation.ts)
const pipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, transform: true });
const errorsOf = (metatype: new () => object, body: object): Promise<string[]> =>
  pipe.transform(body, { type: 'body', metatype }).then(
    () => [],
    (err: { getResponse(): { message: string[] } }) => err.getResponse().message,
  );

/** Issue 45 §3: names people read show something and cannot turn the text around them. */
describe('nameProblem and @IsVisibleName', () => {
  it.each([
    ['\u200B', 'invisible'],
    ['\u200B\u200C\u2060 \u3164', 'invisible'],
    ['\u2800\u2800', 'invisible'],
    ['Ayşe\u202Eevil', 'direction'],
    ['\u2067Ayşe', 'direction'],
    ['Ay\u0000şe', 'control'],
    ['Ayşe\r\nYılmaz', 'control'],
    ['Ayşe\tY', 'control'],
    ['Ayşe\u0085', 'control'],
  ])('refuses %j (%s)', (name, problem) => {
    expect(nameProblem(name)).toBe(problem);
  });

  it.each(['Ayşe Yılmaz', 'İlkay', 'محمد', '李小龍', '👩‍💻 Dev', 'J.', '!'])('takes %j', (name) => {
    expect(nameProblem(name)).toBeNull();
  });

  it('refuses such names on every name field, with a message that says why', async () => {
    expect(await errorsOf(RegisterDto, { email: 'a@b.co', name: '\u200B', password: 'lamp-desk-battery-42' })).toEqual(['Name must contain at least one visible character']);
    expect(await errorsOf(UpdateProfileDto, { display_name: 'x\u202Ey' })).toEqual(['Display name must not contain text-direction control characters']);
    expect(await errorsOf(UpdateProfileDto, { display_name: 'x\ny' })).toEqual(['Display name must not contain control characters (line breaks, tabs, NUL)']);
    expect(await errorsOf(CreateProductDto, { name: '\u200B\u200B', category: 'Home' })).toEqual(['Product name must contain at least one visible character']);
    expect(await errorsOf(CreateProductDto, { name: 'Kettle', brand: 'Acme\u202E', category: 'Home' })).toEqual(['Brand must not contain text-direction control characters']);
    expect(await errorsOf(CreateSquadDto, { name: '\u200B', description: 'd', category: 'General' })).toEqual(['Squad name must contain at least one visible character']);
  });
});

/** Issue 45 §2: one address, one member. */
describe('normaliseEmail and @IsPlainEmail', () => {
  it('folds width and case: a fullwidth address is the ASCII one', () => {
    expect(normaliseEmail(' ａyse@ＤＥＭＯ.local ')).toBe('ayse@demo.local');
    expect(normaliseEmail('AYSE@Demo.Local')).toBe('ayse@demo.local');
  });

  it('refuses invisible or control characters and non-ASCII addresses, saying which', () => {
    expect(emailProblem('ayse\u200b@demo.local')).toBe('Email must not contain invisible or control characters');
    expect(emailProblem('ayse\u202e@demo.local')).toBe('Email must not contain invisible or control characters');
    expect(emailProblem('ayşe@demo.local')).toMatch(/^Email must use Latin letters/);
    expect(emailProblem('ayse@dеmo.local')).toMatch(/^Email must use Latin letters/); // Cyrillic е
    expect(emailProblem('ayse@xn--mnchen-3ya.de')).toBeNull();
  });

  it('registers the normal form, and login looks that form up', async () => {
    const register = await pipe.transform({ email: 'ａyse@demo.local', name: 'A', password: 'lamp-desk-battery-42' }, { type: 'body', metatype: RegisterDto });
    expect(register.email).toBe('ayse@demo.local');
    const login = await pipe.transform({ email: 'ＡYSE@demo.local', password: 'x' }, { type: 'body', metatype: LoginDto });
    expect(login.email).toBe('ayse@demo.local');
    expect(await errorsOf(RegisterDto, { email: 'ayse\u200b@demo.local', name: 'A', password: 'lamp-desk-battery-42' })).toContain(
      'Email must not contain invisible or control characters',
    );
  });
});
