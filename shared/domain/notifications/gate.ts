import { CHANNEL_PROFILES } from './channels';
import type { Channel, ChannelState } from './ports';

/** The provider gate (docs/api.md section 7): may a message leave on its channel now? */

export type GateDecision = { open: true } | { open: false; reason: 'not_connected' | 'not_configured' };

/**
 * External channels pass only with an active tenant connection and the private server-side
 * provider configuration present; in_app never leaves the tenant, so its gate is always open.
 */
export function decideGate(channel: Channel, state: ChannelState, configured: boolean): GateDecision {
  if (CHANNEL_PROFILES[channel].gate === null) return { open: true };
  if (state !== 'active') return { open: false, reason: 'not_connected' };
  if (!configured) return { open: false, reason: 'not_configured' };
  return { open: true };
}
