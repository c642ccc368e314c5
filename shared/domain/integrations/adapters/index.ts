import type { AdapterDeclaration } from '../catalog';
import { bankFeed } from './bank-feed';
import { crm } from './crm';
import { email } from './email';
import { ledgerly } from './ledgerly';
import { quickbooksOnline } from './quickbooks-online';
import { sms } from './sms';
import { tallybook } from './tallybook';
import { telegram } from './telegram';
import { webhook } from './webhook';
import { xero } from './xero';

/** Every adapter of the catalog, in the order `GET /adapters` lists them. */
export const ADAPTERS: readonly AdapterDeclaration[] = [
  telegram,
  email,
  sms,
  webhook,
  xero,
  quickbooksOnline,
  ledgerly,
  tallybook,
  bankFeed,
  crm,
];

const BY_KEY = new Map(ADAPTERS.map((a) => [a.key, a]));

export const adapterByKey = (key: string): AdapterDeclaration | undefined => BY_KEY.get(key);
