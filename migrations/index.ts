import { InitialSchema1763740000000 } from './1763740000000-initial-schema';
import { Sessions1763750000000 } from './1763750000000-sessions';
import { ModelDeactivatedBy1763765300000 } from './1763765300000-model-deactivated-by';
import { CampaignAudit1763770000000 } from './1763770000000-campaign-audit';
import { ClickTrafficRules1764000000000 } from './1764000000000-click-traffic-rules';
import { UnbilledClickReasons1764000100000 } from './1764000100000-unbilled-click-reasons';
import { TestMode1764200000000 } from './1764200000000-test-mode';
import { FillStats1764300000000 } from './1764300000000-fill-stats';
import { AdExplanations1764400000000 } from './1764400000000-ad-explanations';
import { PublisherControls1764500000000 } from './1764500000000-publisher-controls';
import { KeywordTranslations1764600000000 } from './1764600000000-keyword-translations';
import { ServabilityVersion1764700000000 } from './1764700000000-servability-version';
import { Payouts1764800000000 } from './1764800000000-payouts';
import { AccountTokens1764810000000 } from './1764810000000-account-tokens';
import { Conversions1764820000000 } from './1764820000000-conversions';
import { AdViews1764830000000 } from './1764830000000-ad-views';
import { ConversionStats1764840000000 } from './1764840000000-conversion-stats';
import { PublisherAudit1764850000000 } from './1764850000000-publisher-audit';

/** Every migration, oldest first. Listed (not globbed) so tests and the build load the same. */
export const MIGRATIONS = [
  InitialSchema1763740000000,
  Sessions1763750000000,
  ModelDeactivatedBy1763765300000,
  CampaignAudit1763770000000,
  ClickTrafficRules1764000000000,
  UnbilledClickReasons1764000100000,
  TestMode1764200000000,
  FillStats1764300000000,
  AdExplanations1764400000000,
  PublisherControls1764500000000,
  KeywordTranslations1764600000000,
  ServabilityVersion1764700000000,
  Payouts1764800000000,
  AccountTokens1764810000000,
  Conversions1764820000000,
  AdViews1764830000000,
  ConversionStats1764840000000,
  PublisherAudit1764850000000,
];
