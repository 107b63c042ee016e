import { getManyOperation } from '../getManyEndpoint';

export const { option, description, execute } = getManyOperation(
	'report',
	'List the security reports of the sites',
);
