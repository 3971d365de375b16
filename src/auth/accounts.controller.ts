import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import type { Principal } from '@/common/principal';
import { AccountsService } from './accounts.service';
import {
  ChangePasswordDto,
  ForgotPasswordDto,
  MessageDto,
  ResetPasswordDto,
  VerifyEmailDto,
} from './dto/accounts.dto';

@ApiTags('auth')
@Controller('api/auth')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Post('change-password')
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Change the password',
    description:
      'Needs the current password. Ends every other session of the account; this one stays. Rate limited per client IP and per account.',
  })
  @ApiNoContentResponse({ description: 'Changed.' })
  @ApiProblemResponses({
    400: ['validation_failed'],
    401: ['invalid_credentials'],
    429: ['rate_limited'],
  })
  changePassword(
    @CurrentPrincipal() principal: Principal,
    @Body() body: ChangePasswordDto,
    @Req() request: FastifyRequest,
  ): Promise<void> {
    return this.accounts.changePassword(principal, body, request.ip);
  }

  @Post('forgot-password')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Mail a password reset link',
    description:
      'The same answer whether or not an account has this address; an account gets a link to the dashboard that works once, for one hour. Rate limited per client IP and per email.',
  })
  @ApiAcceptedResponse({
    type: MessageDto,
    description: 'Accepted: a mail is sent if the account exists.',
  })
  @ApiProblemResponses({ 400: ['validation_failed'], 429: ['rate_limited'] })
  forgotPassword(
    @Body() body: ForgotPasswordDto,
    @Req() request: FastifyRequest,
  ): Promise<MessageDto> {
    return this.accounts.forgotPassword(body, request.ip);
  }

  @Post('reset-password')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Set a new password with the token of a reset mail',
    description: 'Ends every session of the account; sign in with the new password.',
  })
  @ApiNoContentResponse({ description: 'The password is changed.' })
  @ApiProblemResponses({ 400: ['validation_failed', 'invalid_reset_token'] })
  resetPassword(@Body() body: ResetPasswordDto): Promise<void> {
    return this.accounts.resetPassword(body);
  }

  @Post('verify-email')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Confirm the email address with the token of a verification mail',
    description: 'The link of the mail sent at sign-up works for 24 hours, once.',
  })
  @ApiNoContentResponse({ description: 'The address is verified.' })
  @ApiProblemResponses({ 400: ['validation_failed', 'invalid_verification_token'] })
  verifyEmail(@Body() body: VerifyEmailDto): Promise<void> {
    return this.accounts.verifyEmail(body.token);
  }

  @Post('resend-verification')
  @HttpCode(202)
  @Authenticated()
  @ApiOperation({
    summary: 'Mail a new verification link',
    description:
      "To the signed-in account's address, unless it is verified already. Rate limited per client IP and per account.",
  })
  @ApiAcceptedResponse({ type: MessageDto, description: 'Accepted: a mail is on its way.' })
  @ApiProblemResponses({ 429: ['rate_limited'] })
  resendVerification(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<MessageDto> {
    return this.accounts.resendVerification(principal, request.ip);
  }
}
