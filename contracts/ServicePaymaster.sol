// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

import {BasePaymaster} from "@account-abstraction/contracts/core/BasePaymaster.sol";
import {IEntryPoint} from "@account-abstraction/contracts/interfaces/IEntryPoint.sol";
import {PackedUserOperation} from "@account-abstraction/contracts/interfaces/PackedUserOperation.sol";
import {UserOperationLib} from "@account-abstraction/contracts/core/UserOperationLib.sol";
import {_packValidationData} from "@account-abstraction/contracts/core/Helpers.sol";
import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {MessageHashUtils} from "@openzeppelin/contracts/utils/cryptography/MessageHashUtils.sol";

/**
 * The service's paymaster (ERC-4337 v0.8): it pays, from its EntryPoint
 * deposit, the gas of the operations the service itself signed for. The
 * check is the verifying-paymaster one: `paymasterData` is
 * abi.encode(uint48 validUntil, uint48 validAfter) followed by a 65-byte
 * signature of `verifyingSigner` over getHash(op, validUntil, validAfter) as
 * an Ethereum signed message. A wrong signature fails validation (the
 * EntryPoint answers "AA34 signature error"), it never reverts here. No
 * context, so no postOp.
 */
contract ServicePaymaster is BasePaymaster {
    using UserOperationLib for PackedUserOperation;

    /// The service's signer (the gas tank): the only key whose operations this paymaster sponsors.
    address public immutable verifyingSigner;

    /// Where the time range starts in paymasterAndData, after the paymaster's address and its two gas limits.
    uint256 private constant VALID_TIMESTAMP_OFFSET = UserOperationLib.PAYMASTER_DATA_OFFSET;
    /// Where the signature starts: after the two abi-encoded uint48 words.
    uint256 private constant SIGNATURE_OFFSET = VALID_TIMESTAMP_OFFSET + 64;

    constructor(IEntryPoint anEntryPoint, address signer, address initialOwner) BasePaymaster(anEntryPoint) {
        verifyingSigner = signer;
        // the deployer need not be the owner (a deployment command runs as the gas tank, a devnet's as anyone)
        _transferOwnership(initialOwner);
    }

    /**
     * What the service signs: every field of the operation but its signature
     * (paymasterAndData only up to the paymaster's data, so the service's
     * signature does not sign itself), with the chain, this paymaster and the
     * time range, so a signature is good for one operation on one chain here.
     */
    function getHash(PackedUserOperation calldata userOp, uint48 validUntil, uint48 validAfter) public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    userOp.sender,
                    userOp.nonce,
                    keccak256(userOp.initCode),
                    keccak256(userOp.callData),
                    userOp.accountGasLimits,
                    uint256(bytes32(userOp.paymasterAndData[UserOperationLib.PAYMASTER_VALIDATION_GAS_OFFSET:VALID_TIMESTAMP_OFFSET])),
                    userOp.preVerificationGas,
                    userOp.gasFees,
                    block.chainid,
                    address(this),
                    validUntil,
                    validAfter
                )
            );
    }

    /// The time range and the service's signature of paymasterAndData.
    function parsePaymasterAndData(bytes calldata paymasterAndData) public pure returns (uint48 validUntil, uint48 validAfter, bytes calldata signature) {
        (validUntil, validAfter) = abi.decode(paymasterAndData[VALID_TIMESTAMP_OFFSET:SIGNATURE_OFFSET], (uint48, uint48));
        signature = paymasterAndData[SIGNATURE_OFFSET:];
    }

    function _validatePaymasterUserOp(
        PackedUserOperation calldata userOp,
        bytes32,
        uint256
    ) internal view override returns (bytes memory context, uint256 validationData) {
        (uint48 validUntil, uint48 validAfter, bytes calldata signature) = parsePaymasterAndData(userOp.paymasterAndData);
        require(signature.length == 65, "ServicePaymaster: signature must be 65 bytes");
        bytes32 digest = MessageHashUtils.toEthSignedMessageHash(getHash(userOp, validUntil, validAfter));
        (address recovered, ECDSA.RecoverError error, ) = ECDSA.tryRecover(digest, signature);
        bool failed = error != ECDSA.RecoverError.NoError || recovered != verifyingSigner;
        return ("", _packValidationData(failed, validUntil, validAfter));
    }
}
