import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblemResponses } from '@/common/api-problem-responses.decorator';
import { AppConfig } from '@/config/app-config';
import { AuthService } from './auth.service';
import { Authenticated, CurrentPrincipal } from '@/common/authenticated.decorator';
import { LoginDto, RegisterDto, SessionDto } from './dto/credentials.dto';
import type { Principal } from '@/common/principal';
import { SESSION_COOKIE } from './session-cookie';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  @Post('register')
  @ApiOperation({
    summary: 'Create a publisher account and sign in',
    description:
      'Answers a session as sign-in does (bearer token, and the HttpOnly cookie). The password must pass the password policy.',
  })
  @ApiCreatedResponse({
    type: SessionDto,
    description: 'Signed in; the session cookie is set too.',
  })
  @ApiProblemResponses({ 400: ['validation_failed'], 409: ['email_taken'] })
  async register(
    @Body() body: RegisterDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionDto> {
    return this.withCookie(reply, await this.auth.register(body));
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in', description: 'Rate limited per client IP and per email.' })
  @ApiOkResponse({ type: SessionDto, description: 'Signed in; the session cookie is set too.' })
  @ApiProblemResponses({
    400: ['validation_failed'],
    401: ['invalid_credentials'],
    403: ['forbidden'],
    429: ['rate_limited'],
  })
  async login(
    @Body() body: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionDto> {
    return this.withCookie(reply, await this.auth.login(body, request.ip));
  }

  @Post('logout')
  @HttpCode(204)
  @Authenticated()
  @ApiOperation({
    summary: 'Sign out: ends this session (cookie and token alike)',
    description: 'The session is ended on the server, so its bearer token stops working too.',
  })
  @ApiNoContentResponse({ description: 'Signed out; the cookie is cleared.' })
  async logout(
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.auth.logout(principal.sessionId);
    void reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }

  private withCookie(reply: FastifyReply, session: SessionDto): SessionDto {
    void reply.setCookie(SESSION_COOKIE, session.access_token, {
      httpOnly: true,
      sameSite: 'strict',
      secure: this.config.secureCookies,
      path: '/',
      expires: new Date(session.expires_at),
    });
    return session;
  }
}
