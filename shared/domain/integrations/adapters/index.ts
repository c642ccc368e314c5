import type { AdapterDeclaration } from '../catalog';
import { bankFeed } from './bank-feed';
import { crm } from './crm';
import { email } from './email';
import { ledgerly } from './ledgerly';
import { sms } from './sms';
import { tallybook } from './tallybook';
import { telegram } from './telegram';
import { webhook } from './webhook';

/** Every adapter of the catalog, in the order `GET /adapters` lists them. */
export const ADAPTERS: readonly AdapterDeclaration[] = [
  telegram,
  email,
  sms,
  webhook,
  ledgerly,
  tallybook,
  bankFeed,
  crm,
];

const BY_KEY = new Map(ADAPTERS.map((a) => [a.key, a]));

export const adapterByKey = (key: string): AdapterDeclaration | undefined => BY_KEY.get(key);
