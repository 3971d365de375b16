import { PROBLEM_REASON_DETAILS, ProblemException, type ProblemReason } from '@/common/problem';

/** fetch-ads' 404 `no_matching_ad`, with why no ad was found. */
export const noAd = (reason: ProblemReason): ProblemException =>
  ProblemException.notFound('no_matching_ad', PROBLEM_REASON_DETAILS[reason], reason);
