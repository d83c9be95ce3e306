import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Spec 2.1; the field name `clientAdress` is spelled as the spec spells it. */
export class ServerInfoDto {
  @ApiProperty() clientAdress: string;
  @ApiProperty({ description: 'Issuer of the default OpenID provider; empty when none' })
  oidcIssuer: string;
  @ApiProperty() name: string;
  @ApiProperty() isSecure: boolean;
  @ApiProperty() version: string;
  @ApiPropertyOptional() userName?: string;
  @ApiPropertyOptional() userFullName?: string;
  @ApiPropertyOptional() userKey?: number;
  @ApiPropertyOptional() userBusinessUnitKey?: number;
  @ApiPropertyOptional() userOrganizationKey?: number;
}
