import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, type Repository } from 'typeorm';
import type { Page } from '@/common/dto/page-query.dto';
import { transactionWithRetry } from '@/database/sql';
import { PublisherAuditEntry } from './entities/publisher-audit-entry.entity';
import { Publisher, type PublisherStatus } from './entities/publisher.entity';

/** What an operator may change on a publisher account. */
export interface PublisherChanges {
  revenueSharePpm?: number;
  status?: PublisherStatus;
}

/** The publishers table's queries (operators' accounts share the table), and its audit. */
@Injectable()
export class PublishersRepository {
  constructor(
    @InjectRepository(Publisher) private readonly publishers: Repository<Publisher>,
    @InjectRepository(PublisherAuditEntry)
    private readonly audit: Repository<PublisherAuditEntry>,
  ) {}

  /** Stores a new account and returns it as stored. */
  insert(publisher: Publisher): Promise<Publisher> {
    return this.publishers.save(this.publishers.create(publisher));
  }

  findById(id: string): Promise<Publisher | null> {
    return this.publishers.findOneBy({ id });
  }

  /** By the email as stored: the caller normalises it. */
  findByEmail(email: string): Promise<Publisher | null> {
    return this.publishers.findOneBy({ email });
  }

  /** Publisher accounts only, not operators. */
  countPublishers(): Promise<number> {
    return this.publishers.countBy({ role: 'publisher' });
  }

  /** One page of every account, oldest first (id breaks ties), and the number of accounts. */
  listOldestFirst(page: Page): Promise<[Publisher[], number]> {
    return this.publishers.findAndCount({
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: page.offset,
      take: page.perPage,
    });
  }

  async setPasswordHash(id: string, passwordHash: string, at: Date): Promise<void> {
    await this.publishers.update({ id }, { passwordHash, updatedAt: at });
  }

  async markEmailVerified(id: string, at: Date): Promise<void> {
    await this.publishers.update({ id, emailVerifiedAt: IsNull() }, { emailVerifiedAt: at });
  }

  async update(id: string, changes: PublisherChanges, at: Date): Promise<void> {
    await this.publishers.update({ id }, { ...changes, updatedAt: at });
  }

  /**
   * Applies an operator's changes and, when the status changes, stores its audit entry in the
   * same transaction: a status change is never kept without who made it and why.
   */
  async updateAudited(
    id: string,
    changes: PublisherChanges,
    at: Date,
    entry: PublisherAuditEntry | null,
  ): Promise<void> {
    await transactionWithRetry(this.publishers.manager, async (manager) => {
      await manager.update(Publisher, { id }, { ...changes, updatedAt: at });
      if (entry) await manager.insert(PublisherAuditEntry, entry);
    });
  }

  /** Every status change of the publisher, newest first (ids are time-ordered). */
  auditNewestFirst(publisherId: string): Promise<PublisherAuditEntry[]> {
    return this.audit.find({
      where: { publisherId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }
}
