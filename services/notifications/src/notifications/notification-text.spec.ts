import 'reflect-metadata';
import { NOTIFICATION_TYPES } from '@app/contracts';
import { EMAIL_WORTHY, notificationEmail, notificationMessage, UNKNOWN_ACTOR } from './notification-text';

const burak = { id: 'b', username: 'burak', display_name: 'Burak Kaya', profile_image_url: null };

describe('notificationMessage', () => {
  it.each([
    ['review_liked', 'Burak Kaya liked your review'],
    ['comment', 'Burak Kaya commented on your review'],
    ['new_follower', 'Burak Kaya started following you'],
    ['follow_request', 'Burak Kaya sent you a follow request'],
    ['follow_accepted', 'Burak Kaya accepted your follow request'],
    ['new_review', 'Burak Kaya posted a new review'],
    ['squad_join_request', 'Burak Kaya wants to join Coffee Nerds'],
    ['squad_join_approved', 'Burak Kaya approved your request to join Coffee Nerds'],
    ['squad_join_rejected', 'Burak Kaya declined your request to join Coffee Nerds'],
    ['squad_mention', 'Burak Kaya mentioned you in Coffee Nerds chat'],
  ] as const)('%s reads "%s"', (type, text) => {
    expect(notificationMessage(type, burak, 'Coffee Nerds')).toBe(text);
  });

  it('has a sentence for every type', () => {
    for (const type of NOTIFICATION_TYPES) expect(notificationMessage(type, burak, 'S')).toMatch(/\S/);
  });

  it.each([
    ['review_liked', 'Burak Kaya incelemeni beğendi'],
    ['squad_join_request', 'Burak Kaya, Kahve topluluğuna katılmak istiyor'],
    ['review_hidden', 'Bir moderatör incelemeni gizledi: Spam'],
    ['squad_mention', 'Burak Kaya, Kahve sohbetinde senden bahsetti'],
  ] as const)('%s reads "%s" in Turkish', (type, text) => {
    expect(notificationMessage(type, burak, 'Kahve', 'Spam', 'tr')).toBe(text);
  });

  it('falls back to the username, then to a neutral word, when the name is missing', () => {
    expect(notificationMessage('comment', { ...burak, display_name: '' }, null)).toBe('burak commented on your review');
    expect(notificationMessage('comment', null, null)).toBe(`${UNKNOWN_ACTOR} commented on your review`);
    expect(notificationMessage('comment', null, null, undefined, 'tr')).toBe('Birisi incelemene yorum yaptı');
  });
});

describe('notification emails', () => {
  it('leaves high-volume types (likes, followees’ reviews) out of the inbox', () => {
    expect(EMAIL_WORTHY.has('review_liked')).toBe(false);
    expect(EMAIL_WORTHY.has('new_review')).toBe(false);
    expect(EMAIL_WORTHY.has('follow_request')).toBe(true);
  });

  it('writes the email in the recipient\'s language, greeting them', () => {
    const en = notificationEmail('en', 'Ayşe', 'new_follower', 'Burak Kaya', null);
    expect(en.subject).toBe('Burak Kaya started following you');
    expect(en.body.split('\n')[0]).toBe('Hi Ayşe,');
    expect(en.body).toContain('Burak Kaya started following you.');
    expect(notificationEmail('en', null, 'comment', 'x', null).body.startsWith('Hi there,')).toBe(true);
    const tr = notificationEmail('tr', 'Ayşe', 'squad_join_request', 'Burak', 'Kahve');
    expect(tr.subject).toBe('Burak, Kahve topluluğuna katılmak istiyor');
    expect(tr.body.split('\n')[0]).toBe('Merhaba Ayşe,');
    expect(tr.body).toContain('Ayarlar > Bildirimler');
    expect(notificationEmail('tr', null, 'comment', 'x', null).body.startsWith('Merhaba,')).toBe(true);
    expect(notificationEmail('tr', 'Ayşe', 'squad_mention', 'Burak', 'Kahve').subject).toBe('Burak, Kahve sohbetinde senden bahsetti');
  });
});
