import { Injectable } from '@nestjs/common';
import { ClickIdSigner } from './click-id';
import { type AttributedClick, ClicksRepository } from './clicks.repository';

export type { AttributedClick } from './clicks.repository';

/** Clicks as conversions see them: their click ids (tokens) read, their rows in one query. */
@Injectable()
export class ClickAttributions {
  constructor(
    private readonly clickIds: ClickIdSigner,
    private readonly clicks: ClicksRepository,
  ) {}

  /** The click a click id names, or null for anything forged or altered. */
  clickIdOf(token: unknown): string | null {
    return this.clickIds.verify(token);
  }

  /** The stored ones of these clicks, by id. */
  async find(clickIds: string[]): Promise<Map<string, AttributedClick>> {
    const rows = await this.clicks.findForAttribution([...new Set(clickIds)]);
    return new Map(rows.map((row) => [row.id, row]));
  }
}
