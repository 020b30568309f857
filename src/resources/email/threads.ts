/**
 * Seeded mail threads. A thread alternates a customer's message (inbound) and the inbox's reply
 * (outbound). Every message after the first carries `in_reply_to` = the previous message's
 * `message_id` and `references` = every earlier `message_id` of the thread, oldest first, as mail
 * clients write them (RFC 5322 §3.6.4); the first has `in_reply_to` null and `references` [].
 */
import type { Faker } from '@faker-js/faker';
import { isoTimestamp } from '../../clock/virtual-clock.js';
import type { SeedContext } from '../../fixture/account-template.js';
import type { InboxRecord, MessageRecord } from '../../store/records.js';

/** Conversations a creator's inbox really gets: a subject, what the customer writes, how the creator answers. */
const CONVERSATIONS = [
  {
    subject: (product: string) => `Question about ${product}`,
    asks: (product: string) => [
      `I'm thinking about buying ${product}. Is it suitable for complete beginners?`,
      'Does it include lifetime updates?',
    ],
    replies: [
      'Great question! Yes, it starts from the basics and every update is included at no extra cost.',
      'Happy to help if anything is unclear.',
    ],
  },
  {
    subject: () => "Can't find my download link",
    asks: () => ["I paid this morning but I can't find the email with my download link.", 'Could you send it again?'],
    replies: [
      "Sorry about that! I've just re-sent the link; it can take a few minutes to arrive.",
      'Please check your promotions folder too.',
    ],
  },
  {
    subject: () => 'Refund request',
    asks: (product: string) => [`${product} turned out not to be what I needed.`, 'Could I get a refund, please?'],
    replies: ["No problem at all, I've issued a full refund.", 'It should show on your statement within 5 to 10 business days.'],
  },
  {
    subject: () => 'Invoice for my order',
    asks: () => ['Could you send me an invoice with my company name for my last order?', 'I need it for my accountant.'],
    replies: ['Of course, the invoice is attached to this email.', 'Let me know if any details need changing.'],
  },
  {
    subject: () => 'Collaboration idea',
    asks: (product: string) => [`I run a small newsletter and loved ${product}.`, 'Would you be open to a cross-promotion next month?'],
    replies: ['Thanks for reaching out, that sounds fun!', 'Could you share your audience size and a couple of dates that work?'],
  },
  {
    subject: (product: string) => `Loved ${product}!`,
    asks: () => ['Just wanted to say thank you, this was exactly what I needed.', 'Will there be a follow-up?'],
    replies: ['Thank you so much, that made my day!', "A follow-up is in the works; you'll be the first to know."],
  },
];

const FOLLOW_UPS = ['Thanks for the quick answer!', 'One more thing: can I share it with a colleague?'];
const MINUTE_MS = 60_000;

interface Person {
  name: string;
  email: string;
}

function mailbox(person: Person): string {
  return `${person.name} <${person.email}>`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function htmlOf(text: string): string {
  return text
    .split('\n\n')
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function previewOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
}

function correspondent(context: SeedContext, faker: Faker): Person {
  const customers = context.store.collection('customers').values();
  if (customers.length > 0) return faker.helpers.arrayElement(customers);
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  return { name: `${first} ${last}`, email: faker.internet.email({ firstName: first, lastName: last }).toLowerCase() };
}

/** `count` messages in threads of one to four, all before `context.now`. */
export function* seedThreads(context: SeedContext, inbox: InboxRecord, count: number): Generator<void, MessageRecord[], undefined> {
  const { faker, ids, now } = context;
  const products = context.store
    .collection('experiences')
    .values()
    .map((e) => e.name);
  const out: MessageRecord[] = [];
  while (out.length < count) {
    const length = Math.min(count - out.length, faker.number.int({ min: 1, max: 4 }));
    const customer = correspondent(context, faker);
    const firstName = customer.name.split(' ')[0] ?? customer.name;
    const product = products.length > 0 ? faker.helpers.arrayElement(products) : 'your course';
    const conversation = faker.helpers.arrayElement(CONVERSATIONS);
    const subject = conversation.subject(product);
    const gaps = Array.from({ length }, () => faker.number.int({ min: 20, max: 24 * 60 }) * MINUTE_MS);
    let at = now - gaps.reduce((a, b) => a + b, 0) - faker.number.int({ min: 0, max: 30 * 24 * 60 }) * MINUTE_MS;
    const threadId = ids.next('thr');
    const thread: MessageRecord[] = [];
    for (let k = 0; k < length; k++) {
      at += gaps[k]!;
      const inbound = k % 2 === 0;
      const previous = thread[k - 1];
      const timestamp = isoTimestamp(at);
      const text = inbound
        ? `Hi,\n\n${(k === 0 ? conversation.asks(product) : FOLLOW_UPS).join(' ')}\n\nThanks,\n${firstName}`
        : `Hi ${firstName},\n\n${conversation.replies.join(' ')}\n\nBest,\n${inbox.display_name}`;
      const senderDomain = inbound ? customer.email.split('@')[1] : inbox.domain;
      thread.push({
        object: 'message',
        id: ids.next('msg'),
        thread_id: threadId,
        inbox_id: inbox.id,
        direction: inbound ? 'inbound' : 'outbound',
        status: inbound ? 'received' : 'sent',
        message_id: `<${faker.string.alphanumeric({ length: 24, casing: 'lower' })}@${senderDomain}>`,
        in_reply_to: previous?.message_id ?? null,
        references: thread.map((m) => m.message_id),
        from: inbound ? mailbox(customer) : mailbox({ name: inbox.display_name, email: inbox.address }),
        to: [inbound ? inbox.address : mailbox(customer)],
        cc: [],
        bcc: [],
        reply_to: null,
        subject: k === 0 ? subject : `Re: ${subject}`,
        preview: previewOf(text),
        labels: labelsOf(faker, inbound, k === length - 1),
        suppressed: [],
        delivery: inbound
          ? { status: 'received', received_at: timestamp, spf: 'pass', dkim: 'pass', dmarc: 'pass' }
          : { status: 'delivered', delivered_at: timestamp, attempts: 1, smtp_response: '250 2.0.0 OK' },
        attachments: inbound && faker.datatype.boolean({ probability: 0.2 }) ? [screenshot(context)] : [],
        text,
        html: htmlOf(text),
        timestamp,
        created_at: timestamp,
      });
    }
    out.push(...thread);
    // A step per thread: a template may give one inbox hundreds of messages.
    yield;
  }
  return out;
}

function screenshot({ faker, ids }: SeedContext): MessageRecord['attachments'][number] {
  const size = faker.number.int({ min: 40_000, max: 900_000 });
  return { attachment_id: ids.next('att'), filename: 'screenshot.png', content_type: 'image/png', size, inline: false };
}

/** Inbound mail is `received` (and `unread` while it awaits a reply); outbound is `sent`. Some get `starred`. */
function labelsOf(faker: Faker, inbound: boolean, lastOfThread: boolean): string[] {
  const labels = [inbound ? 'received' : 'sent'];
  if (inbound && lastOfThread) labels.push('unread');
  if (faker.datatype.boolean({ probability: 0.15 })) labels.push('starred');
  return labels;
}
