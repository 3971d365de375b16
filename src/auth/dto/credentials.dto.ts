import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsString, MaxLength, MinLength } from 'class-validator';
import { IsRequired } from '@/common/validators';
import { PublisherDto } from '@/publishers/dto/publisher.dto';
import { IsAcceptablePassword, PASSWORD_MIN_LENGTH } from '@/common/password-policy';

const normaliseEmail = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim().toLowerCase() : value;

export class LoginDto {
  @ApiProperty({ example: 'ada@example.com', maxLength: 254 })
  @Transform(normaliseEmail)
  @IsEmail({}, { message: 'email must be an email address' })
  @MaxLength(254)
  @IsString()
  @IsRequired()
  email: string;

  @ApiProperty({ example: 'correct horse battery staple', minLength: 10, maxLength: 200 })
  @IsString()
  @MaxLength(200)
  @IsRequired()
  password: string;
}

export class RegisterDto extends LoginDto {
  @ApiProperty({
    example: 'correct horse battery staple',
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: 200,
    description:
      'At least 10 characters, not one character repeated, and not one of the most common passwords.',
  })
  @IsString()
  @MaxLength(200)
  @IsAcceptablePassword()
  @IsRequired()
  declare password: string;

  @ApiProperty({ example: 'Ada Publishing', minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  @IsRequired()
  name: string;
}

export class SessionDto {
  @ApiProperty({ type: PublisherDto }) publisher: PublisherDto;
  @ApiProperty({
    description:
      'Bearer token for programmatic clients (`Authorization: Bearer …`). The dashboard uses the HttpOnly cookie set with it.',
  })
  access_token: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-28T12:00:00.000Z' }) expires_at: string;
}
