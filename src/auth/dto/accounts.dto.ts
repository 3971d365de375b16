import { ApiProperty, PickType } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { IsAcceptablePassword, PASSWORD_MIN_LENGTH } from '@/common/password-policy';
import { IsRequired } from '@/common/validators';
import { LoginDto } from './credentials.dto';

const NEW_PASSWORD = {
  example: 'a new horse battery staple',
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 200,
  description:
    'At least 10 characters, not one character repeated, and not one of the most common passwords.',
};

const TOKEN = {
  description: 'The token of the link in the mail.',
  example: 'mXz0k3J6m1Vb8QnB3c9yTQ2fR5lUo7wHcE4gKdPjA1s',
  maxLength: 100,
};

export class ChangePasswordDto {
  @ApiProperty({ example: 'correct horse battery staple', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  @IsRequired()
  current_password: string;

  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MaxLength(200)
  @IsAcceptablePassword()
  @IsRequired()
  new_password: string;
}

export class ForgotPasswordDto extends PickType(LoginDto, ['email'] as const) {}

export class ResetPasswordDto {
  @ApiProperty(TOKEN)
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @IsRequired()
  token: string;

  @ApiProperty(NEW_PASSWORD)
  @IsString()
  @MaxLength(200)
  @IsAcceptablePassword()
  @IsRequired()
  new_password: string;
}

export class VerifyEmailDto {
  @ApiProperty(TOKEN)
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @IsRequired()
  token: string;
}

export class MessageDto {
  @ApiProperty({
    example: 'If an account has this email address, a mail with a link is on its way.',
  })
  message: string;
}
