import { HttpStatus, Injectable } from '@nestjs/common';
import { pageOf } from '@/common/dto/page-query.dto';
import { shareToPpm } from '@/common/money';
import { ProblemException } from '@/common/problem';
import { newId } from '@/database/columns';
import { CredentialChanges } from './credential-changes.service';
import { PublisherDto, toPublisherDto } from './dto/publisher.dto';
import {
  PublisherAuditDto,
  PublisherListQueryDto,
  PublisherPageDto,
  toPublisherAuditEntryDto,
  UpdatePublisherDto,
} from './dto/publisher-admin.dto';
import { Publisher } from './entities/publisher.entity';
import { PublishersRepository } from './publishers.repository';

/** Publisher accounts as the management API shows them, and operators change them. */
@Injectable()
export class PublisherAccountsService {
  constructor(
    private readonly publishers: PublishersRepository,
    private readonly credentialChanges: CredentialChanges,
  ) {}

  async profile(publisherId: string): Promise<PublisherDto> {
    return toPublisherDto(await this.find(publisherId));
  }

  async list(query: PublisherListQueryDto): Promise<PublisherPageDto> {
    const page = pageOf(query);
    const [publishers, total] = await this.publishers.listOldestFirst(page);
    return {
      items: publishers.map(toPublisherDto),
      page: page.page,
      per_page: page.perPage,
      total,
    };
  }

  /**
   * Changes a publisher's revenue share or status. Both reach fetch-ads at once: the cached
   * credentials of the publisher's keys are dropped (on every instance with REDIS_URL), so the next impression carries the new
   * share and a suspended publisher's keys answer 404.
   */
  async updateAsOperator(
    operatorId: string,
    publisherId: string,
    changes: UpdatePublisherDto,
  ): Promise<PublisherDto> {
    const publisher = await this.find(publisherId);
    // A reason explains a status change; alone it would be kept nowhere.
    if (changes.reason !== undefined && changes.status === undefined) {
      throw ProblemException.validation([
        { field: 'reason', message: 'reason is kept only with a change of status' },
      ]);
    }
    // An operator who suspends themself may lock every operator out.
    if (changes.status === 'suspended' && publisher.id === operatorId) {
      throw new ProblemException(
        HttpStatus.CONFLICT,
        'conflict',
        'You cannot suspend your own account; ask another operator.',
      );
    }
    const at = new Date();
    const statusChanges = changes.status !== undefined && changes.status !== publisher.status;
    await this.publishers.updateAudited(
      publisher.id,
      {
        ...(changes.revenue_share !== undefined
          ? { revenueSharePpm: shareToPpm(changes.revenue_share) }
          : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
      },
      at,
      statusChanges
        ? {
            id: newId(),
            publisherId: publisher.id,
            actorId: operatorId,
            oldStatus: publisher.status,
            newStatus: changes.status!,
            reason: changes.reason ?? null,
            createdAt: at,
          }
        : null,
    );
    await this.credentialChanges.announce({ kind: 'publisher', id: publisher.id });
    return this.profile(publisher.id);
  }

  /** Every status change of the publisher: who, when, from, to and why; newest first. */
  async audit(publisherId: string): Promise<PublisherAuditDto> {
    const publisher = await this.find(publisherId);
    const entries = await this.publishers.auditNewestFirst(publisher.id);
    return { entries: entries.map(toPublisherAuditEntryDto) };
  }

  private async find(publisherId: string): Promise<Publisher> {
    const publisher = await this.publishers.findById(publisherId);
    if (!publisher)
      throw ProblemException.notFound('publisher_not_found', 'No publisher has this id.');
    return publisher;
  }
}
